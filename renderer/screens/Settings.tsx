import { useSettings } from '../state/settings.ts';
import { useReloadOnChange } from '../hooks/reload-on-change.ts';
import { CredentialsCard } from './settings/CredentialsCard.tsx';
import { DeskCard } from './settings/DeskCard.tsx';
import { Memories } from './settings/Memories.tsx';
import { PicturesCard } from './settings/PicturesCard.tsx';
import { ShopCard } from './settings/ShopCard.tsx';
import { ShopServerCard } from './settings/ShopServerCard.tsx';

/** Settings (SPEC §9.7): the shop's settings, the BrickLink credentials, the shop server, and what brick-work remembers. */
export function Settings() {
  const settings = useSettings((s) => s.settings);
  const shopServer = useSettings((s) => s.shopServer);
  const desk = useSettings((s) => s.desk);
  const reload = useSettings((s) => s.reload);
  useReloadOnChange(reload);
  return (
    <section className="screen" aria-label="Settings">
      <div className="toolbar">
        <h2>Settings</h2>
      </div>
      <div className="cards">
        <ShopCard settings={settings} />
        <CredentialsCard settings={settings} />
        <ShopServerCard view={shopServer} />
        <DeskCard view={desk} />
        <PicturesCard settings={settings} />
      </div>
      <Memories />
    </section>
  );
}

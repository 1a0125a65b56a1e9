import { describe, expect, it, vi } from 'vitest';

// Settings' cards as staff see them when the keychain kept a secret back (issue 44), rendered to markup.
vi.mock('../renderer/state/call.ts', () => ({ call: () => new Promise(() => {}) }));
vi.mock('../renderer/state/app.ts', () => ({
  attempt: (fn: () => Promise<unknown>) => fn(),
  useApp: { getState: () => ({ clearNotice() {}, go() {}, say() {} }) },
}));

// Imported by name at run time: web code (DOM types), outside the Node type-check.
const REACT = 'react';
const REACT_DOM_SERVER = 'react-dom/server';
const { createElement } = (await import(REACT)) as { createElement(c: unknown, p: unknown): unknown };
const { renderToStaticMarkup } = (await import(REACT_DOM_SERVER)) as { renderToStaticMarkup(e: unknown): string };
const CREDENTIALS = '../renderer/screens/settings/CredentialsCard.tsx';
const SHOP_SERVER = '../renderer/screens/settings/ShopServerCard.tsx';
const { CredentialsCard } = (await import(CREDENTIALS)) as { CredentialsCard: (p: { settings: unknown }) => unknown };
const { ShopServerCard } = (await import(SHOP_SERVER)) as { ShopServerCard: (p: { view: unknown }) => unknown };

const WHY = 'This computer’s keychain did not let brick-work read them: access was denied. Try again and choose Allow.';
const render = (component: unknown, props: unknown = {}) => renderToStaticMarkup(createElement(component, props));

describe('Settings when the keychain refuses', () => {
  it('the credentials card says they are stored but could not be read, why, and offers Try again', () => {
    const html = render(CredentialsCard, {
      settings: { credentialsStored: true, credentialsEncrypted: true, credentialsRefused: WHY },
    });
    expect(html).toContain('role="alert"');
    expect(html).toContain(WHY);
    expect(html).toMatch(/<button type="button">Try again<\/button>/);
    expect(html).toContain('Credentials are stored, but could not be read');
    expect(html).not.toContain('No credentials yet');
    const fine = render(CredentialsCard, {
      settings: { credentialsStored: true, credentialsEncrypted: true, credentialsRefused: null },
    });
    expect(fine).not.toContain('Try again');
    expect(fine).toContain('Credentials are stored, encrypted by the operating system.');
  });

  it('the shop server card says the keychain kept the chosen server back, and offers Try again', () => {
    const html = render(ShopServerCard, {
      view: {
        inUse: { kind: 'file', name: 'brick-work.sqlite' },
        chosen: null,
        encrypted: true,
        canChoose: true,
        refused: WHY,
        note: null,
      },
    });
    expect(html).toContain('role="alert"');
    expect(html).toContain(WHY);
    expect(html).toContain('Try again');
  });
});

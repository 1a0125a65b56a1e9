import { expect, it, onTestFinished } from 'vitest';
import { openStore } from '../../src/store/open.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/** Messages for people, not for developers (issue 10): what to do, and where. */
describeEachStore('the service says what to do', () => {
  async function service() {
    const storePath = newStoreLocation();
    const store = await openStore(storePath);
    onTestFinished(() => store.close());
    return serviceFor(store.db, storePath);
  }

  it('names the empty BrickLink credentials and where to find them', async () => {
    const r = await (
      await service()
    ).call('settings.setCredentials', { consumerKey: ' ', consumerSecret: 's', token: '', tokenSecret: 'x' });
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'invalid-argument',
        message:
          'Enter all four BrickLink API credentials: the consumer key and the token are empty. BrickLink shows them to the shop’s account on its API registration page (bricklink.com/v2/api/register_consumer.page).',
      },
    });
  });

  it('sends staff to Settings when a look-up has no credentials', async () => {
    const r = await (await service()).call('lookup.start', {});
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toEqual({
        code: 'no-credentials',
        message: expect.stringMatching(/enter them in Settings → BrickLink credentials first\.$/),
      });
  });
});

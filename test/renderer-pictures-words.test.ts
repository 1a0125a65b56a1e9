import { describe, expect, it } from 'vitest';
import type { PicturesStatusView } from '../src/api/contract.ts';
import { picturesInMemoryWords, picturesStatusWords } from '../renderer/pictures-words.ts';

const status: PicturesStatusView = {
  network: true,
  fetched: 3,
  failed: 0,
  refused: 0,
  lastRefused: null,
  waiting: 0,
  cached: 2,
  missing: 1,
  bytes: 2_500_000,
  inMemory: null,
};

describe("the pictures card's words (Settings, issue 62 §4)", () => {
  it('says that pictures are kept in memory, and why; refused answers counted, with the last one’s why', () => {
    expect(picturesInMemoryWords(status)).toBeNull();
    const why = '/shop/shop.pictures.sqlite is not a picture cache, left as it is';
    expect(picturesInMemoryWords({ ...status, inMemory: why })).toBe(
      `Pictures are kept in memory for this start: ${why}.`,
    );
    expect(picturesStatusWords(status)).toBe(
      '2 pictures kept (2.5 MB); this start fetched 3, 0 failed, 0 on their way.',
    );
    const refused = {
      ...status,
      refused: 2,
      lastRefused: 'the picture server answered with something that is not a picture',
    };
    expect(picturesStatusWords(refused)).toBe(
      '2 pictures kept (2.5 MB); this start fetched 3, 0 failed, 0 on their way. ' +
        '2 refused (the last: the picture server answered with something that is not a picture).',
    );
  });
});

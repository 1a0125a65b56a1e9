import { describe, expect, it } from 'vitest';
import type { PicturesStatusView } from '../src/api/contract.ts';
import { picturesStatusWords } from '../renderer/pictures-words.ts';

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
};

describe("the pictures card's words (Settings, issue 62 §4)", () => {
  it('counts the answers refused, with the last one’s why', () => {
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

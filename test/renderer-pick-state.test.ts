import { describe, expect, it, vi } from 'vitest';

// The picking screen's store (issue 65 §4) against calls the test answers: a key changes the row at once,
// the call's answer settles it, a refusal is said in words and the row goes back to what the store holds.
const sent: { name: string; args: Record<string, unknown> }[] = [];
let answer: (name: string, args: Record<string, unknown>) => Promise<unknown> = () => new Promise(() => {});
const said: string[] = [];

vi.mock('../renderer/state/call.ts', () => {
  class Refusal extends Error {
    constructor(readonly error: { code: string; message: string }) {
      super(error.message);
    }
  }
  return {
    Refusal,
    call: (name: string, args: Record<string, unknown>) => {
      sent.push({ name, args });
      return answer(name, args);
    },
    messageOf: (e: unknown) => (e instanceof Refusal ? e.error : { code: 'internal', message: String(e) }),
  };
});
vi.mock('../renderer/state/app.ts', () => ({
  useApp: {
    getState: () => ({
      clearNotice() {},
      fail(e: { message: string }) {
        said.push(e.message);
      },
    }),
  },
}));

// Named by a variable: the screens' modules are type-checked with the screens (tsconfig.web.json), not here.
const STATE = '../renderer/state/pick.ts';
const CALL = '../renderer/state/call.ts';
interface Entry {
  key: string;
  location: string;
  take: number;
  picked: number;
  item: { shown: string };
}
interface PickState {
  list: { entries: Entry[]; progress: { text: string } } | null;
  selected: string | null;
  typing: string | null;
  open(orderId: number): Promise<void>;
  toggle(): void;
  move(by: number): void;
  digit(d: string): void;
  commitTyping(): void;
}
const { usePick } = (await import(STATE)) as { usePick: { getState(): PickState } };

const entry = (key: string, location: string, take: number, picked = 0): Entry => ({
  key,
  location,
  take,
  picked,
  item: { shown: '3001' },
});
const LIST = {
  order: { id: 7, reference: '9001' },
  entries: [entry('1:10', 'A2', 3), entry('1:11', 'A10', 2), entry('2:12', 'B-1-9', 6)],
  missing: [],
  nothingAsked: [],
  unplaced: [],
  progress: { lots: 3, lotsDone: 0, pieces: 11, piecesDone: 0, text: '0 of 3 lots, 0 of 11 pieces' },
};
const state = () => usePick.getState();
const shown = () => state().list?.entries.map((e) => `${e.location}:${e.picked}`);
/** Lets the calls' answers in. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the picking screen’s keys (issue 65 §4)', () => {
  it('Space marks the whole take at once and moves on; the answer settles it', async () => {
    answer = (name) => (name === 'pick.list' ? Promise.resolve(LIST) : new Promise(() => {}));
    await state().open(7);
    expect(state().selected).toBe('1:10');
    let release: (v: unknown) => void = () => {};
    answer = () => new Promise((r) => (release = r));
    state().toggle();
    // Before any answer: the row marked, the progress counted, the next stop selected.
    expect(shown()).toEqual(['A2:3', 'A10:0', 'B-1-9:0']);
    expect(state().list?.progress.text).toBe('1 of 3 lots, 3 of 11 pieces');
    expect(state().selected).toBe('1:11');
    await settle();
    expect(sent.at(-1)).toEqual({ name: 'pick.mark', args: { orderId: 7, key: '1:10', picked: 3 } });
    release({
      entry: { ...entry('1:10', 'A2', 3, 3), pickedBy: 'counter' },
      progress: { text: '1 of 3 lots, 3 of 11 pieces' },
    });
    await settle();
    expect(state().list?.entries[0]).toMatchObject({ picked: 3, pickedBy: 'counter' });
  });

  it('a part quantity past the take is said in words, with nothing sent; within it, it is marked', async () => {
    answer = (name) =>
      Promise.resolve(
        name === 'pick.list'
          ? LIST
          : {
              entry: { ...entry('1:11', 'A10', 2, 1), pickedBy: 'counter' },
              progress: { text: '0 of 3 lots, 1 of 11 pieces' },
            },
      );
    await state().open(7);
    state().move(1);
    const before = sent.length;
    state().digit('9');
    state().commitTyping();
    expect(said.at(-1)).toBe('Only 2 to take from A10: type 1 to 2, or Space for all of them.');
    expect(state().typing).toBe('9');
    expect(sent.length).toBe(before);
    state().digit('0');
    expect(state().typing).toBe('90');
    state().commitTyping();
    state().move(0);
    expect(state().typing).toBe(null);
    state().digit('1');
    state().commitTyping();
    expect(shown()).toEqual(['A2:0', 'A10:1', 'B-1-9:0']);
    await settle();
    expect(sent.at(-1)).toEqual({ name: 'pick.mark', args: { orderId: 7, key: '1:11', picked: 1 } });
    expect(state().list?.progress.text).toBe('0 of 3 lots, 1 of 11 pieces');
  });

  it('a refused mark is said with its stop, and the row goes back to what the store holds', async () => {
    answer = (name) => (name === 'pick.list' ? Promise.resolve(LIST) : new Promise(() => {}));
    await state().open(7);
    const { Refusal } = (await import(CALL)) as {
      Refusal: new (e: { code: string; message: string }) => Error;
    };
    answer = (name) =>
      name === 'pick.list'
        ? Promise.resolve(LIST)
        : Promise.reject(new Refusal({ code: 'not-found', message: 'The walk has changed: read it again.' }));
    state().toggle();
    expect(shown()).toEqual(['A2:3', 'A10:0', 'B-1-9:0']);
    await settle();
    await settle();
    expect(said.at(-1)).toBe('3001 from A2: The walk has changed: read it again.');
    expect(shown()).toEqual(['A2:0', 'A10:0', 'B-1-9:0']);
  });
});

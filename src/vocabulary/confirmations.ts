/**
 * What a hand placement asks staff to confirm before it happens (SPEC §9): declared once for the core,
 * the contract, the argument checks, the CLI and the screens. Unconfirmed, the placement is refused with
 * `needs-acknowledgement`, its message saying what would happen; nothing is written.
 * - `moves-lines`: it changes a remembered placement, which moves (or unplaces) other saved lines;
 * - `other-type`: it places a line on an item of another type than the line gives (a minifig on a part).
 */
export const PLACEMENT_CONFIRMATIONS = ['moves-lines', 'other-type'] as const;
export type PlacementConfirmation = (typeof PLACEMENT_CONFIRMATIONS)[number];

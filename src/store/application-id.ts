/** `PRAGMA application_id` of every brick-work store: "BRKW" in ASCII. */
export const APPLICATION_ID = 0x42524b57;

export function formatApplicationId(id: number): string {
  // application_id is a signed 32-bit integer in SQLite; show it as the unsigned hex in the header.
  return `0x${(id >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

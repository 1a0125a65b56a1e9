/**
 * Another process writing the store, as the CLI does: it takes the store's write lock (`BEGIN IMMEDIATE`),
 * prints "locked", and holds it until a line arrives on stdin; then it commits and prints "released".
 */
import Database from 'better-sqlite3';

const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: write-lock-holder STORE');
const db = new Database(file, { timeout: 10_000 });
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
process.stdin.once('data', () => {
  db.exec('COMMIT');
  db.close();
  process.stdout.write('released\n');
  process.exit(0);
});

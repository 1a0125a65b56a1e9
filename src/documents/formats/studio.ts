/**
 * BrickLink Studio models (`.io`, SPEC §8, issue 49): a ZIP holding `model.ldr` — encrypted with ZipCrypto
 * under the password Studio publishes in older files, plain in newer ones — read as an LDraw model. The
 * archive is sized up from its directory before anything is unpacked (SPEC §11): too many entries, or more
 * unpacked than a document may be, is refused in words; the model is unpacked no further than it says it is.
 */
import AdmZip from 'adm-zip';
import { BrickWorkError } from '../../errors.ts';
import { DOCUMENT_SIZE_LIMIT } from '../../file-limits.ts';
import { decodeText } from '../../text/decode.ts';
import { parseError } from '../../text/position.ts';
import type { ParsedDocument } from '../model.ts';
import { readLdrawModel } from './ldraw.ts';

/** Studio's published password for the model of older `.io` files. */
const STUDIO_PASSWORD = 'soho0909';
/** Entries one Studio file may hold: a model, its thumbnail and info, custom parts and textures. */
export const MODEL_ZIP_ENTRY_LIMIT = 10_000;
/** What all its entries may unpack to, together (a ZIP bomb says more in its directory, and is refused there). */
export const MODEL_ZIP_UNPACKED_LIMIT = 4 * DOCUMENT_SIZE_LIMIT;

const MB = (n: number) => `${(n / (1024 * 1024)).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;

export function readStudioModel(content: Uint8Array, fileName: string): ParsedDocument {
  let zip: AdmZip;
  let entries: AdmZip.IZipEntry[];
  try {
    zip = new AdmZip(Buffer.from(content.buffer, content.byteOffset, content.byteLength));
    entries = zip.getEntries();
  } catch {
    throw parseError(fileName, 'it is not a Studio model that can be read: its ZIP archive is damaged');
  }
  if (entries.length > MODEL_ZIP_ENTRY_LIMIT)
    throw new BrickWorkError(
      'parse-error',
      `${fileName} holds ${entries.length.toLocaleString('en-US')} entries, more than the ${MODEL_ZIP_ENTRY_LIMIT.toLocaleString('en-US')} a Studio model may; nothing was unpacked.`,
    );
  const unpacked = entries.reduce((n, e) => n + e.header.size, 0);
  if (unpacked > MODEL_ZIP_UNPACKED_LIMIT)
    throw new BrickWorkError(
      'parse-error',
      `${fileName} would unpack to ${MB(unpacked)}, more than the ${MB(MODEL_ZIP_UNPACKED_LIMIT)} a Studio model may; nothing was unpacked.`,
    );
  const model =
    entries.find((e) => /^model\.ldr$/i.test(e.entryName)) ??
    entries.find((e) => !e.isDirectory && /^[^/]+\.(ldr|mpd)$/i.test(e.entryName));
  if (model === undefined) throw parseError(fileName, 'the Studio file holds no model (no model.ldr in its archive)');
  if (model.header.size > DOCUMENT_SIZE_LIMIT)
    throw new BrickWorkError(
      'parse-error',
      `${fileName}: its model would unpack to ${MB(model.header.size)}, over the ${MB(DOCUMENT_SIZE_LIMIT)} a document may be; nothing was unpacked.`,
    );
  let bytes: Buffer | null;
  let wrongPassword = false;
  try {
    // Unpacked no further than its stated size (adm-zip's inflate is capped there), and checked by its CRC.
    bytes = zip.readFile(model, model.header.encrypted ? STUDIO_PASSWORD : undefined);
  } catch (e) {
    // adm-zip says so only when the password's check byte fails; past it, a size or CRC that does not hold
    // is a damaged archive, whatever the password (issue 62).
    wrongPassword = e instanceof Error && /Wrong Password/i.test(e.message);
    bytes = null;
  }
  if (bytes === null)
    throw parseError(
      fileName,
      wrongPassword
        ? "its model is encrypted with a password other than Studio's, so it can't be read"
        : 'its model could not be unpacked (the archive is damaged)',
    );
  const decoded = decodeText(bytes, fileName);
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  return readLdrawModel(text, fileName, 'studio-model', content);
}

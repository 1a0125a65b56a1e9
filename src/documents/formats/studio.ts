/**
 * BrickLink Studio models (`.io`, SPEC §8, issue 49): a ZIP holding `model.ldr` — encrypted with ZipCrypto
 * under the password Studio publishes in older files, plain in newer ones — read as an LDraw model. The
 * archive is sized up from its directory before anything is unpacked or built (SPEC §11, issue 62): too
 * many entries (counted from the directory's end, before one is read), a name longer than a path, or more
 * unpacked than a document may be, is refused in words; the model is unpacked no further than it says it is.
 */
import { BrickWorkError } from '../../vocabulary/errors.ts';
import { DOCUMENT_SIZE_LIMIT } from '../../platform/file-limits.ts';
import { decodeText } from '../../text/decode.ts';
import { parseError } from '../../text/position.ts';
import type { ParsedDocument } from '../model.ts';
import { readLdrawModel } from './ldraw.ts';
import { unpackEntry, zipEnd, zipEntries, type ZipEntry } from './zip.ts';

/** Studio's published password for the model of older `.io` files. */
const STUDIO_PASSWORD = 'soho0909';
/** Entries one Studio file may hold: a model, its thumbnail and info, custom parts and textures. */
export const MODEL_ZIP_ENTRY_LIMIT = 10_000;
/** The longest name of an entry, in bytes: longer than any path a computer keeps is no Studio file's. */
export const MODEL_ZIP_NAME_LIMIT = 1_024;
/** What all its entries may unpack to, together (a ZIP bomb says more in its directory, and is refused there). */
export const MODEL_ZIP_UNPACKED_LIMIT = 4 * DOCUMENT_SIZE_LIMIT;

const MB = (n: number) => `${(n / (1024 * 1024)).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;
const count = (n: number) => n.toLocaleString('en-US');

export function readStudioModel(content: Uint8Array, fileName: string): ParsedDocument {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const end = zipEnd(bytes);
  if (end === null) throw damaged(fileName);
  // As the directory's end says: nothing of the entries is read when there are too many.
  if (end.count > MODEL_ZIP_ENTRY_LIMIT) throw tooManyEntries(fileName, end.count);
  const entries = zipEntries(bytes, end);
  if (entries === null) throw damaged(fileName);
  const longest = entries.reduce((n, e) => Math.max(n, e.nameBytes), 0);
  if (longest > MODEL_ZIP_NAME_LIMIT)
    throw new BrickWorkError(
      'too-big',
      `${fileName} holds an entry whose name is ${count(longest)} bytes long, more than the ${count(MODEL_ZIP_NAME_LIMIT)} a Studio model's entry names may be; nothing was unpacked.`,
    );
  const unpacked = entries.reduce((n, e) => n + e.size, 0);
  if (unpacked > MODEL_ZIP_UNPACKED_LIMIT)
    throw new BrickWorkError(
      'too-big',
      `${fileName} would unpack to ${MB(unpacked)}, more than the ${MB(MODEL_ZIP_UNPACKED_LIMIT)} a Studio model may; nothing was unpacked.`,
    );
  const model = modelEntry(entries, fileName);
  if (model.size > DOCUMENT_SIZE_LIMIT)
    throw new BrickWorkError(
      'too-big',
      `${fileName}: its model would unpack to ${MB(model.size)}, over the ${MB(DOCUMENT_SIZE_LIMIT)} a document may be; nothing was unpacked.`,
    );
  const unpackedModel = unpackEntry(bytes, model, STUDIO_PASSWORD);
  if (!unpackedModel.ok)
    throw parseError(
      fileName,
      unpackedModel.why === 'password'
        ? "its model is encrypted with a password other than Studio's, so it can't be read"
        : unpackedModel.why === 'method'
          ? `its model is packed in a way brick-work can't unpack (ZIP method ${model.method})`
          : 'its model could not be unpacked (the archive is damaged)',
    );
  const decoded = decodeText(unpackedModel.content, fileName);
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  return readLdrawModel(text, fileName, 'studio-model', content);
}

/** `model.ldr`, else the first `.ldr`/`.mpd` at the archive's top; one name twice is a damaged archive. */
function modelEntry(entries: readonly ZipEntry[], fileName: string): ZipEntry {
  const model =
    entries.find((e) => /^model\.ldr$/i.test(e.name)) ?? entries.find((e) => /^[^/]+\.(ldr|mpd)$/i.test(e.name));
  if (model === undefined) throw parseError(fileName, 'the Studio file holds no model (no model.ldr in its archive)');
  // Which of two would be read is the archive's ambiguity, not a choice to make here.
  if (entries.filter((e) => e.name === model.name).length > 1)
    throw parseError(fileName, `it is not a Studio model that can be read: its archive holds ${model.name} twice`);
  return model;
}

function damaged(fileName: string): BrickWorkError {
  return parseError(fileName, 'it is not a Studio model that can be read: its ZIP archive is damaged');
}

function tooManyEntries(fileName: string, entries: number): BrickWorkError {
  return new BrickWorkError(
    'too-big',
    `${fileName} holds ${count(entries)} entries, more than the ${count(MODEL_ZIP_ENTRY_LIMIT)} a Studio model may; nothing was unpacked.`,
  );
}

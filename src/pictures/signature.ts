/**
 * A picture is a picture by its bytes (SPEC §11, issue 62 §4): PNG, JPEG, GIF or WebP by their
 * signatures, whatever the server's `Content-Type` says. Its type is one of these four, never a
 * server's text: the screens put it in a `data:` address.
 */

export type PictureType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

/** The picture's type by its first bytes; null: not a picture of any of the four. */
export function pictureType(bytes: Uint8Array): PictureType | null {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  return null;
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return bytes.length < at + length ? '' : String.fromCharCode(...bytes.subarray(at, at + length));
}

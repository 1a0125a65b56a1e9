import { BrickWorkError } from '../../errors.ts';
import { decodeEntities } from '../../text/xml.ts';
import type { ItemType } from '../item-types.ts';
import { authorizationHeader, type Credentials } from './oauth.ts';

/** What BrickLink said about one number: the item, or that it has none. */
export type ItemAnswer =
  | { readonly found: true; readonly type: ItemType; readonly no: string; readonly name: string; readonly categoryId: number | null }
  | { readonly found: false };

/** BrickLink's item type names in the API's URLs. */
export const API_TYPE_NAMES: Readonly<Record<ItemType, string>> = {
  P: 'PART',
  S: 'SET',
  M: 'MINIFIG',
  B: 'BOOK',
  G: 'GEAR',
  C: 'CATALOG',
  I: 'INSTRUCTION',
  O: 'ORIGINAL_BOX',
};

/** Anything that can answer for one item number: the BrickLink API, or a test's stand-in. */
export interface ItemFetcher {
  fetchItem(type: ItemType, no: string): Promise<ItemAnswer>;
}

interface ApiEnvelope {
  meta?: { code?: number; message?: string; description?: string };
  data?: { no?: string; name?: string; category_id?: number };
}

/** The BrickLink store API v1 (`GET /items/{type}/{no}`), signed with OAuth 1.0a. */
export class BrickLinkApi implements ItemFetcher {
  constructor(
    private readonly baseUrl: string,
    private readonly credentials: Credentials,
    private readonly options: { timeoutMs?: number; nowSeconds?: () => number } = {},
  ) {}

  async fetchItem(type: ItemType, no: string): Promise<ItemAnswer> {
    const url = `${this.baseUrl.replace(/\/$/, '')}/items/${API_TYPE_NAMES[type]}/${encodeURIComponent(no)}`;
    const now = this.options.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Authorization: authorizationHeader('GET', url, this.credentials, now), Accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (e) {
      throw new BrickWorkError('source-error', `BrickLink could not be reached (${(e as Error).message}).`);
    }
    let body: ApiEnvelope = {};
    try {
      body = (await response.json()) as ApiEnvelope;
    } catch {
      // Not JSON: judged by the HTTP status alone.
    }
    const code = body.meta?.code ?? response.status;
    if (response.status === 404 || code === 404) return { found: false };
    if (!response.ok || code !== 200 || !body.data?.no || !body.data.name) {
      const why = [body.meta?.message, body.meta?.description].filter(Boolean).join(': ') || `HTTP ${response.status}`;
      throw new BrickWorkError('source-error', `BrickLink answered ${type} ${no} with an error (${code}: ${why}).`);
    }
    return {
      found: true,
      type,
      no: body.data.no,
      name: decodeEntities(body.data.name),
      categoryId: Number.isSafeInteger(body.data.category_id) ? (body.data.category_id ?? null) : null,
    };
  }
}

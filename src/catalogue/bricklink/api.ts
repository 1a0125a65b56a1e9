import { rgbOrNull } from '../records.ts';
import { BrickWorkError } from '../../vocabulary/errors.ts';
import { decodeEntities } from '../../text/xml.ts';
import type { ItemType } from '../../vocabulary/item-types.ts';
import { authorizationHeader, type Credentials } from './oauth.ts';

/** What BrickLink said about one number: the item, or that it has none. */
export type ItemAnswer =
  | {
      readonly found: true;
      readonly type: ItemType;
      readonly no: string;
      readonly name: string;
      readonly categoryId: number | null;
    }
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

/** Anything that can answer for one item number, and give the colour list: the BrickLink API, or a stand-in. */
export interface ItemFetcher {
  fetchItem(type: ItemType, no: string): Promise<ItemAnswer>;
  fetchColours(): Promise<{ id: number; name: string; rgb: string | null }[]>;
}

interface ApiEnvelope<T> {
  meta?: { code?: number; message?: string; description?: string };
  data?: T;
}

/** The BrickLink store API v1 (`GET /items/{type}/{no}`), signed with OAuth 1.0a. */
export class BrickLinkApi implements ItemFetcher {
  constructor(
    private readonly baseUrl: string,
    private readonly credentials: Credentials,
    private readonly options: { timeoutMs?: number; nowSeconds?: () => number } = {},
  ) {}

  async fetchItem(type: ItemType, no: string): Promise<ItemAnswer> {
    const { status, body } = await this.get<{ no?: string; name?: string; category_id?: number }>(
      `/items/${API_TYPE_NAMES[type]}/${encodeURIComponent(no)}`,
      `${type} ${no}`,
    );
    if (status === 404) return { found: false };
    const data = body.data;
    if (!data?.no || !data.name)
      throw new BrickWorkError('source-error', `BrickLink's answer for ${type} ${no} has no item in it.`);
    return {
      found: true,
      type,
      no: data.no,
      name: decodeEntities(data.name),
      categoryId: Number.isSafeInteger(data.category_id) ? (data.category_id ?? null) : null,
    };
  }

  /** The API's colour list (`GET /colors`), in BrickLink's numbering. */
  async fetchColours(): Promise<{ id: number; name: string; rgb: string | null }[]> {
    const { status, body } = await this.get<{ color_id?: number; color_name?: string; color_code?: string }[]>(
      '/colors',
      'the colour list',
    );
    if (status === 404 || !Array.isArray(body.data))
      throw new BrickWorkError('source-error', 'BrickLink gave no colour list.');
    return body.data.flatMap((c) =>
      Number.isSafeInteger(c.color_id) && c.color_name
        ? [{ id: c.color_id as number, name: decodeEntities(c.color_name), rgb: rgbOrNull(c.color_code) }]
        : [],
    );
  }

  /**
   * The shop's whole store inventory (`GET /inventories`: every lot, whatever its status — a lot held for
   * a sale is still on its shelf to be picked), as the API's JSON list; read by `storeInventoryLots`.
   * One call, counted by the caller before it is sent, as every call is.
   */
  async fetchStoreInventory(): Promise<unknown> {
    const { status, body } = await this.get<unknown>('/inventories', "the store's inventory");
    if (status === 404) throw new BrickWorkError('source-error', "BrickLink gave no inventory for the shop's store.");
    return body.data;
  }

  /** A signed GET. 404 (by HTTP status or by `meta.code`) is an answer; other errors are refusals. */
  private async get<T>(pathname: string, what: string): Promise<{ status: 200 | 404; body: ApiEnvelope<T> }> {
    const url = `${this.baseUrl.replace(/\/$/, '')}${pathname}`;
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
    let body: ApiEnvelope<T> = {};
    try {
      body = (await response.json()) as ApiEnvelope<T>;
    } catch {
      // Not JSON: judged by the HTTP status alone.
    }
    const code = body.meta?.code ?? response.status;
    if (response.status === 404 || code === 404) return { status: 404, body };
    if (!response.ok || code !== 200) {
      const why = [body.meta?.message, body.meta?.description].filter(Boolean).join(': ') || `HTTP ${response.status}`;
      throw new BrickWorkError(
        'source-error',
        `BrickLink answered the request for ${what} with an error (${code}: ${why}).`,
      );
    }
    return { status: 200, body };
  }
}

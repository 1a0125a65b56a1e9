import { createHmac, randomBytes } from 'node:crypto';

/** The shop's four BrickLink API credentials. Never logged. */
export interface Credentials {
  readonly consumerKey: string;
  readonly consumerSecret: string;
  readonly token: string;
  readonly tokenSecret: string;
}

/** RFC 3986 percent-encoding, as OAuth 1.0a requires: everything but A-Z a-z 0-9 - . _ ~. */
export function percentEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export interface SignInput {
  readonly method: string;
  /** The full URL, query included: query parameters are signed too. */
  readonly url: string;
  readonly credentials: Credentials;
  readonly nonce: string;
  readonly timestamp: string;
  /** Form parameters of the body (application/x-www-form-urlencoded), signed as well. */
  readonly bodyParams?: readonly (readonly [string, string])[];
}

/** The OAuth 1.0a HMAC-SHA1 signature (RFC 5849 §3.4). */
export function oauthSignature(input: SignInput): {
  signature: string;
  baseString: string;
  oauthParams: [string, string][];
} {
  const url = new URL(input.url);
  const oauthParams: [string, string][] = [
    ['oauth_consumer_key', input.credentials.consumerKey],
    ['oauth_nonce', input.nonce],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', input.timestamp],
    ['oauth_token', input.credentials.token],
    ['oauth_version', '1.0'],
  ];
  const params = [...url.searchParams.entries(), ...(input.bodyParams ?? []), ...oauthParams]
    .map(([k, v]) => [percentEncode(k), percentEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const baseUrl = `${url.protocol}//${url.host.toLowerCase()}${url.pathname}`;
  const baseString = [input.method.toUpperCase(), percentEncode(baseUrl), percentEncode(params)].join('&');
  const key = `${percentEncode(input.credentials.consumerSecret)}&${percentEncode(input.credentials.tokenSecret)}`;
  const signature = createHmac('sha1', key).update(baseString).digest('base64');
  return { signature, baseString, oauthParams };
}

/** The `Authorization: OAuth …` header for a request, with a fresh nonce and the current timestamp. */
export function authorizationHeader(method: string, url: string, credentials: Credentials, nowSeconds: number): string {
  const nonce = randomBytes(16).toString('hex');
  const { signature, oauthParams } = oauthSignature({ method, url, credentials, nonce, timestamp: String(nowSeconds) });
  const fields = [...oauthParams, ['oauth_signature', signature] as [string, string]];
  return `OAuth ${fields.map(([k, v]) => `${percentEncode(k)}="${percentEncode(v)}"`).join(', ')}`;
}

/** Credentials from the environment (the CLI), or null with the names of the missing ones. */
export function credentialsFromEnv(env: NodeJS.ProcessEnv): { credentials: Credentials | null; missing: string[] } {
  const names = {
    consumerKey: 'BRICKLINK_CONSUMER_KEY',
    consumerSecret: 'BRICKLINK_CONSUMER_SECRET',
    token: 'BRICKLINK_TOKEN',
    tokenSecret: 'BRICKLINK_TOKEN_SECRET',
  } as const;
  const missing = Object.values(names).filter((n) => !env[n]);
  if (missing.length > 0) return { credentials: null, missing };
  return {
    credentials: {
      consumerKey: env[names.consumerKey] ?? '',
      consumerSecret: env[names.consumerSecret] ?? '',
      token: env[names.token] ?? '',
      tokenSecret: env[names.tokenSecret] ?? '',
    },
    missing: [],
  };
}

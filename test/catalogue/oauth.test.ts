import { describe, expect, it } from 'vitest';
import { authorizationHeader, oauthSignature, percentEncode } from '../../src/catalogue/bricklink/oauth.ts';

describe('OAuth 1.0a HMAC-SHA1 signing', () => {
  it("matches Twitter's published signing example exactly (a body with spaces, + and !)", () => {
    const { signature, baseString } = oauthSignature({
      method: 'POST',
      url: 'https://api.twitter.com/1.1/statuses/update.json?include_entities=true',
      bodyParams: [['status', 'Hello Ladies + Gentlemen, a signed OAuth request!']],
      credentials: {
        consumerKey: 'xvz1evFS4wEEPTGEFPHBog',
        consumerSecret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
        token: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
        tokenSecret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
      },
      nonce: 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg',
      timestamp: '1318622958',
    });
    expect(baseString).toBe(
      'POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521',
    );
    expect(signature).toBe('hCtSmYh+iHYCEqBWrE7C7hYmtUk=');
  });

  it('percent-encodes as RFC 3986 says', () => {
    expect(percentEncode("Ladies + Gentlemen, a signed OAuth request!*'()~")).toBe(
      'Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21%2A%27%28%29~',
    );
  });

  it('builds an Authorization header with every oauth_ parameter and a fresh nonce each time', () => {
    // Secrets with a character no nonce (hex) or signature (base64) has: one found in the header was written.
    const c = { consumerKey: 'ck', consumerSecret: 'consumer-secret', token: 't', tokenSecret: 'token-secret' };
    const a = authorizationHeader('GET', 'https://api.bricklink.com/api/store/v1/items/part/3001', c, 1_700_000_000);
    const b = authorizationHeader('GET', 'https://api.bricklink.com/api/store/v1/items/part/3001', c, 1_700_000_000);
    expect(a).toMatch(
      /^OAuth oauth_consumer_key="ck", oauth_nonce="[0-9a-f]{32}", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1700000000", oauth_token="t", oauth_version="1.0", oauth_signature="[^"]+"$/,
    );
    expect(a).not.toBe(b);
    expect(a).not.toContain('consumer-secret');
    expect(a).not.toContain('token-secret');
  });
});

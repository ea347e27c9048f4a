// A real OpenID provider (npm oidc-provider) for the OAuth end-to-end test: one public client with
// PKCE, resource indicators (RFC 8707) issuing JWT access tokens whose audience is the requested
// resource, and the development login form (any login; the account id becomes sub and email).
// Usage: node oidc.mjs PORT REDIRECT_URI
import Provider from 'oidc-provider';

const [port, redirect] = process.argv.slice(2);
const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  clients: [{
    client_id: 'mcp-e2e', token_endpoint_auth_method: 'none',
    redirect_uris: [redirect], grant_types: ['authorization_code'], response_types: ['code'],
  }],
  pkce: { required: () => true },
  findAccount: (ctx, id) => ({ accountId: id, claims: () => ({ sub: id, email: id }) }),
  claims: { openid: ['sub'], email: ['email'] },
  features: {
    devInteractions: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: (ctx, client, oneOf) => oneOf ?? undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, resource) => ({
        audience: resource, scope: 'openid email mcp', accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
  extraTokenClaims: async (ctx, token) => (token.accountId ? { email: token.accountId } : undefined),
  scopes: ['openid', 'email', 'mcp'],
});
provider.proxy = false;
provider.listen(Number(port), '127.0.0.1', () => console.log(`oidc-provider at ${issuer}`));
for (const ev of ['authorization.error', 'grant.error', 'server_error']) {
  provider.on(ev, (...args) => console.error(ev, ...args.slice(-1).map((e) => e?.message ?? e)));
}

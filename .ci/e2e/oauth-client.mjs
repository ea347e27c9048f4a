// The TypeScript SDK's OAuth client flow against a server protected by a real OpenID provider:
// 401 -> protected resource metadata -> authorization server metadata -> authorization code with
// PKCE (the login form is filled in by this script, as a browser would) -> token -> tools/call.
// Usage: node oauth-client.mjs MCP_URL LOGIN TOOL (OAUTH_TOKEN_FILE=path keeps the access token)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

const [url, login, tool] = process.argv.slice(2);
const redirectUrl = 'http://127.0.0.1:18499/callback';
let code, verifier, tokens, authorizationUrl;

const provider = {
  get redirectUrl() { return redirectUrl; },
  get clientMetadata() { return { redirect_uris: [redirectUrl], client_name: 'e2e', token_endpoint_auth_method: 'none' }; },
  clientInformation: () => ({ client_id: 'mcp-e2e' }),
  tokens: () => tokens,
  saveTokens: (t) => { tokens = t; },
  redirectToAuthorization: (u) => { authorizationUrl = u; },
  saveCodeVerifier: (v) => { verifier = v; },
  codeVerifier: () => verifier,
};

// authorize plays the browser: follow redirects with a cookie jar, fill in the login and consent
// forms, and stop at the redirect to our callback, which carries the code.
async function authorize(start) {
  const jar = new Map();
  const cookies = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res) => {
    for (const c of res.headers.getSetCookie()) {
      const [kv] = c.split(';');
      const i = kv.indexOf('=');
      jar.set(kv.slice(0, i), kv.slice(i + 1));
    }
  };
  let next = new URL(start), method = 'GET', body;
  for (let hop = 0; hop < 20; hop++) {
    if (next.href.startsWith(redirectUrl)) {
      const c = next.searchParams.get('code');
      if (!c) throw new Error(`callback without a code: ${next}`);
      return c;
    }
    if (process.env.OAUTH_DEBUG) console.error(method, next.href);
    const res = await fetch(next, { method, body, redirect: 'manual',
      headers: { cookie: cookies(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) } });
    keep(res);
    method = 'GET'; body = undefined;
    if (res.status >= 300 && res.status < 400) {
      next = new URL(res.headers.get('location'), next);
      continue;
    }
    const html = await res.text();
    const action = html.match(/<form[^>]*action="([^"]+)"/);
    if (res.status !== 200 || !action) throw new Error(`unexpected ${res.status} at ${next}: ${html.slice(0, 300)}`);
    const prompt = html.match(/name="prompt" value="([^"]+)"/)?.[1];
    const form = new URLSearchParams({ prompt });
    if (prompt === 'login') { form.set('login', login); form.set('password', 'qualquer'); }
    next = new URL(action[1].replace(/&amp;/g, '&'), next); method = 'POST'; body = form.toString();
  }
  throw new Error('too many redirects');
}

const connect = async () => {
  const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  try {
    await client.connect(transport);
    return client;
  } catch (e) {
    if (!(e instanceof UnauthorizedError)) throw e;
    if (!authorizationUrl) throw new Error('401 without an authorization redirect');
    code = await authorize(authorizationUrl);
    await transport.finishAuth(code);
    const again = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await again.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    return again;
  }
};

const client = await connect();
const result = await client.callTool({ name: tool, arguments: {} });
if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`);
const payload = JSON.parse(Buffer.from(tokens.access_token.split('.')[1], 'base64url').toString());
console.log(`oauth: ${tool} answered as ${login} with an access token of ${payload.iss} for ${payload.aud}`);
if (process.env.OAUTH_TOKEN_FILE) (await import('node:fs')).writeFileSync(process.env.OAUTH_TOKEN_FILE, tokens.access_token);
await client.close();

#!/usr/bin/env bash
# End-to-end: the built binary over stdio and Streamable HTTP, driven by the official MCP conformance
# suite, the TypeScript client and headless Chromium (lumo's report pages, caderninho's panel). Uses a throwaway data directory, so the
# demo workspace is seeded.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
# Every client step is bounded, so a hung browser or client fails the run in minutes instead of
# holding CI until its deadline.
bounded() { timeout -k 10 300 "$@"; }

(cd "$root" && go build -o "$work/lumo" ./cmd/lumo && go build -o "$work/mcp-conformance" ./cmd/mcp-conformance)
(cd "$here" && npm install --no-audit --no-fund --silent)
export XDG_DATA_HOME="$work/data"

# The conformance suite needs Node.js 22 or newer: the npm package "node" brings it (from the npm
# registry) into node_modules/.bin, first on PATH for the suite only.
conformance() { (cd "$here" && PATH="$here/node_modules/.bin:$PATH" npx conformance "$@"); }
# Scenarios that apply to these servers; the others exercise fixture tools, prompts and resources
# of the suite's reference server (test_simple_text, test://watched-resource, ...).
scenarios="server-initialize ping logging-set-level tools-list resources-list prompts-list server-sse-multiple-streams server-sse-polling dns-rebinding-protection"

wait_port() {
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "server on port $1 did not start" >&2
  return 1
}

# 1. Conformance suite, single-user HTTP mode (the suite sends no token).
"$work/lumo" serve --http 127.0.0.1:18451 --user ana 2>"$work/conf.log" &
pids+=($!)
wait_port 18451
for s in $scenarios completion-complete; do
  echo "== conformance $s"
  conformance server --url http://127.0.0.1:18451/mcp --scenario "$s"
done

# 1b. The MCP inspector's CLI (it builds arguments from the published input schemas: integers must be
#     reachable without following $ref, or it sends appId as the text "1").
inspector() { (cd "$here" && bounded node node_modules/@modelcontextprotocol/inspector-cli/build/cli.js --cli "$@"); }
inspector_call() { # URL TOOL ARG...
  local url=$1 tool=$2; shift 2
  local args=(); for a in "$@"; do args+=(--tool-arg "$a"); done
  out=$(inspector "$url" --transport http --method tools/call --tool-name "$tool" "${args[@]}")
  if echo "$out" | grep -q '"isError": true'; then echo "inspector $tool: $out" >&2; exit 1; fi
  echo "== inspector CLI: $tool answered"
}
inspector_call http://127.0.0.1:18451/mcp get_app appId=1
inspector_call http://127.0.0.1:18451/mcp search_values appId=1 ref=Lojas.UF
inspector_call http://127.0.0.1:18451/mcp query appId=1 'fields=[{"ref":"Lojas.UF"},{"ref":"Vendas.Valor da venda","agg":"sum"}]' limit=3

# 2. HTTP with bearer tokens: 401 without or with a wrong token; the TypeScript client as two users.
"$work/lumo" serve --http 127.0.0.1:18452 2>"$work/http.log" &
pids+=($!)
wait_port 18452
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'
for auth in "" "Authorization: Bearer wrong-token"; do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' ${auth:+-H "$auth"} -d "$init" http://127.0.0.1:18452/mcp)
  [ "$code" = 401 ] || { echo "expected 401 for '${auth:-no token}', got $code" >&2; exit 1; }
done
echo "== http: 401 without a valid token"
(cd "$here" && bounded node client.mjs http http://127.0.0.1:18452/mcp tok-ana-loja 3)
(cd "$here" && bounded node client.mjs http http://127.0.0.1:18452/mcp tok-carla-outra 1)
if grep -q "tok-ana-loja\|wrong-token" "$work/http.log"; then echo "a token reached the log" >&2; exit 1; fi

# 2b. The REST mirror: /openapi.json passes two independent OpenAPI 3.1 validators (swagger-parser,
#     and redocly lint's recommended rules, failing on errors), and every path it advertises answers
#     with a valid token.
openapi_check() { # BASE_URL TOKEN NAME
  echo "== openapi $3"
  (cd "$here" && PATH="$here/node_modules/.bin:$PATH" node openapi.mjs "$1" "$2" "$work/$3.openapi.json")
  (cd "$here" && PATH="$here/node_modules/.bin:$PATH" REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
    redocly lint --format=summary "$work/$3.openapi.json")
}
openapi_check http://127.0.0.1:18452 tok-ana-loja lumo
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -d '{"appId":1}' http://127.0.0.1:18452/tools/get_app)
[ "$code" = 401 ] || { echo "REST without a token: expected 401, got $code" >&2; exit 1; }
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST http://127.0.0.1:18452/tools/get_app -H 'Authorization: Bearer tok-ana-loja' \
  -H 'Content-Type: application/json' -d '{"appId":1}')
[ "$code" = 200 ] || { echo "REST get_app: expected 200, got $code" >&2; exit 1; }
# 3. stdio: the client spawns the binary.
(cd "$here" && bounded node client.mjs stdio "$work/lumo" ana 3)
(cd "$here" && bounded node client.mjs stdio "$work/lumo" bruno 3)
# 4. Permalink reports in real headless Chromium (Debian's package; installed when missing).
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi
"$work/lumo" serve --http 127.0.0.1:18453 --public-url http://127.0.0.1:18453 2>"$work/report.log" &
pids+=($!)
wait_port 18453
(cd "$here" && bounded node report.mjs http://127.0.0.1:18453 tok-ana-loja tok-carla-outra)
if grep -q "tok-ana-loja\|tok-carla-outra\|wrong-token" "$work/report.log"; then echo "a token reached the log" >&2; exit 1; fi
# 4. Our Gherkin suite as a conformance program for a foreign server (cmd/mcp-conformance, the
#    features embedded, run outside the source tree): the lumo features (less those tagged
#    @own-setup) against the built binary over HTTP with tokens, and as a stdio command.
"$work/lumo" serve --http 127.0.0.1:18455 --rate-user 0 --rate-tenant 0 2>"$work/features.log" &
pids+=($!)
wait_port 18455
ids=$(sqlite3 "$XDG_DATA_HOME/lumo/lumo.db" "SELECT group_concat(app_key || '=' || id, ',') FROM lumo_apps")
echo "== features against the binary over HTTP"
(cd "$work" && ./mcp-conformance -suite lumo -target=http://127.0.0.1:18455/mcp -app-ids="$ids" -format=progress)
echo "== features against the binary on stdio (JUnit report)"
(cd "$work" && ./mcp-conformance -suite lumo -target-cmd="$work/lumo serve --rate-user 0 --rate-tenant 0 --user {user}" \
  -app-ids="$ids" -format="progress,junit:$work/features-junit.xml")
grep -o '<testsuites [^>]*>' "$work/features-junit.xml"
(cd "$root" && go build -o "$work/caderninho" ./cmd/caderninho)
"$work/caderninho" call caderninho_accounts '{}' >/dev/null # seeds the demo installation
# The conformance suite against caderninho without a token (loopback only) and read-only.
"$work/caderninho" serve --http 127.0.0.1:18456 --no-token --read-only 2>"$work/cad-conf.log" &
pids+=($!)
wait_port 18456
for s in $scenarios; do
  echo "== caderninho conformance $s"
  conformance server --url http://127.0.0.1:18456/mcp --scenario "$s"
done
inspector_call http://127.0.0.1:18456/mcp caderninho_transactions limit=2
inspector_call http://127.0.0.1:18456/mcp plan_totals space=casa
"$work/caderninho" serve --http 127.0.0.1:18454 2>"$work/cad-features.log" &
pids+=($!)
wait_port 18454
# caderninho's document passes the validators and every path it advertises answers (an empty body:
# INVALID_ARGUMENTS for the writes, so nothing is written).
openapi_check http://127.0.0.1:18454 tok-assistente caderninho
echo "== caderninho features against the binary over HTTP and on stdio"
(cd "$work" && ./mcp-conformance -suite caderninho -target=http://127.0.0.1:18454/mcp -format=progress)
(cd "$work" && ./mcp-conformance -suite caderninho -target-cmd="$work/caderninho serve" -format=progress)

# The caderninho private panel in headless Chromium, on a fresh database imported from an
# installation.yaml (the import prints the owner credential alone on its line).
mkdir -p "$work/panel/ofx/aurora-ana"
cat >"$work/panel/installation.yaml" <<'YAML'
timezone: America/Sao_Paulo
people:
  - {key: ana, name: Ana Lima}
spaces:
  - {key: casa, name: Casa, categories: [Mercado, Contas]}
connections:
  - {key: aurora-ana, institution: Banco Aurora, holder: ana, space: casa, source: ofx/aurora-ana}
YAML
cred=$("$work/caderninho" import --db "$work/panel.db" "$work/panel/installation.yaml" | grep '^cadpainel_')
"$work/caderninho" serve --db "$work/panel.db" --http 127.0.0.1:18457 2>"$work/panel.log" &
pids+=($!)
wait_port 18457
echo "== caderninho panel in Chromium"
(cd "$here" && bounded node panel.mjs http://127.0.0.1:18457 "$cred" "$work/panel-files")
if grep -qF -e "$cred" -e "$(cat "$work/panel-files/token")" "$work/panel.log"; then echo "a secret reached the log" >&2; exit 1; fi

# 5b. Pages of other sites, and of a name rebound to 127.0.0.1, in Chromium against both servers,
#     token-less and with tokens: every request is refused by the server and nothing is written.
XDG_DATA_HOME="$work/cross" "$work/caderninho" serve --http 127.0.0.1:18458 --no-token 2>"$work/cross.log" & # its own demo
pids+=($!)
wait_port 18458
attack='{"space":"casa","confirmed":true,"idempotency_key":"ataque-0001","day":"2026-11-05","amount":{"amountMinor":"-999999","currency":"BRL"},"currency":"BRL","description":"Ataque"}'
echo "== cross-site and rebound pages in Chromium"
(cd "$here" && bounded node crosssite.mjs http://127.0.0.1:18451 get_app '{"appId":1}')
(cd "$here" && bounded node crosssite.mjs http://127.0.0.1:18452 get_app '{"appId":1}')
(cd "$here" && bounded node crosssite.mjs http://127.0.0.1:18458 caderninho_transactions '{}' plan_add_record "$attack")
(cd "$here" && bounded node crosssite.mjs http://127.0.0.1:18454 caderninho_transactions '{}' plan_add_record "$attack")
attacks() { sqlite3 "$1" "SELECT count(*) FROM cad_records WHERE description = 'Ataque'"; }
[ "$(attacks "$work/cross/caderninho/caderninho.db")" = 0 ] && [ "$(attacks "$XDG_DATA_HOME/caderninho/caderninho.db")" = 0 ] ||
  { echo "a cross-site page wrote a record" >&2; exit 1; }
# The same write from the owner's own client lands, so the count above can see one.
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -d "$attack" http://127.0.0.1:18458/tools/plan_add_record)
[ "$code" = 200 ] && [ "$(attacks "$work/cross/caderninho/caderninho.db")" = 1 ] || { echo "the owner's own write: $code" >&2; exit 1; }

# 6. OAuth 2.1 end to end: a real OpenID provider (npm oidc-provider, JWT access tokens bound to the
#    requested resource), both servers as protected resources, the TypeScript SDK's OAuth client
#    flow (401, resource and authorization server metadata, authorization code with PKCE, token,
#    tools/call); a token for lumo is refused by caderninho (wrong audience).
node22="$here/node_modules/.bin/node"
(cd "$here" && "$node22" oidc.mjs 18470 http://127.0.0.1:18499/callback 2>"$work/oidc.log" >/dev/null) &
pids+=($!)
wait_port 18470
"$work/lumo" serve --http 127.0.0.1:18471 --public-url http://127.0.0.1:18471 --oauth-issuer http://127.0.0.1:18470 \
  --oauth-claim email --oauth-scopes mcp 2>"$work/lumo-oauth.log" &
pids+=($!)
"$work/caderninho" serve --http 127.0.0.1:18472 --public-url http://127.0.0.1:18472 --oauth-issuer http://127.0.0.1:18470 \
  --oauth-claim email --oauth-scopes mcp 2>"$work/cad-oauth.log" &
pids+=($!)
wait_port 18471
wait_port 18472
echo "== oauth: the TypeScript SDK's OAuth flow against both servers"
(cd "$here" && OAUTH_TOKEN_FILE="$work/lumo.jwt" bounded "$node22" oauth-client.mjs http://127.0.0.1:18471/mcp ana search_catalog)
(cd "$here" && bounded "$node22" oauth-client.mjs http://127.0.0.1:18472/mcp "Assistente da casa" caderninho_accounts)
www=$(curl -s -o /dev/null -D - -H "Authorization: Bearer $(cat "$work/lumo.jwt")" -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' -d "$init" http://127.0.0.1:18472/mcp | tr -d '\r' | grep -i '^www-authenticate:' || true)
case "$www" in
  *'error="invalid_token"'*"nao e para este servidor"*) echo "== oauth: caderninho refuses lumo's token: $www" ;;
  *) echo "caderninho accepted, or refused without the error, a token for lumo: '$www'" >&2; exit 1 ;;
esac
if grep -q "eyJ" "$work/lumo-oauth.log" "$work/cad-oauth.log"; then echo "an access token reached the log" >&2; exit 1; fi

echo "e2e: all passed"

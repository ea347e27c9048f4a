// Checks a server's served OpenAPI document: it passes @apidevtools/swagger-parser's OpenAPI 3.1
// validation (structure and every $ref), and every path it advertises answers with the token:
// JSON, not 404 or 405. The document is also written to a file for `redocly lint`.
// Usage: node openapi.mjs BASE_URL TOKEN OUT_FILE
import SwaggerParser from "@apidevtools/swagger-parser";
import { writeFileSync } from "node:fs";

const [base, token, out] = process.argv.slice(2);
const res = await fetch(base + "/openapi.json");
if (res.status !== 200) throw new Error(`GET /openapi.json: ${res.status}`);
const text = await res.text();
writeFileSync(out, text);
const doc = JSON.parse(text);
if (doc.openapi !== "3.1.0") throw new Error(`openapi ${doc.openapi}, want 3.1.0`);
await SwaggerParser.validate(structuredClone(doc));
console.log(`${base}/openapi.json: valid OpenAPI ${doc.openapi} (swagger-parser), ${Object.keys(doc.paths).length} paths`);

let failed = 0;
for (const [path, item] of Object.entries(doc.paths)) {
  for (const method of Object.keys(item)) {
    const r = await fetch(base + path, {
      method: method.toUpperCase(),
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: method === "get" ? undefined : "{}",
    });
    const body = await r.text();
    let json = true;
    try { JSON.parse(body); } catch { json = false; }
    const declared = r.status in item[method].responses || "default" in item[method].responses;
    const ok = r.status !== 404 && r.status !== 405 && r.status !== 401 && json && declared;
    console.log(`${ok ? "ok  " : "FAIL"} ${method.toUpperCase()} ${path}: ${r.status}`);
    if (!ok) failed++;
  }
}
if (failed) {
  console.error(`${failed} advertised paths do not answer`);
  process.exit(1);
}

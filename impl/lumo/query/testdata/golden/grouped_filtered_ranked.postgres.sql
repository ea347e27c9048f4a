WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_nome", '') AS g0, SUM(e.m0) AS m0 FROM (SELECT t0."c_loja_id" AS k0_0, SUM(t0."c_valor") AS m0 FROM "t_vendas" t0 WHERE (t0."c_situacao" COLLATE "C" = $1) AND (t0."c_data" >= CAST($2 AS TIMESTAMP) AND t0."c_data" < CAST($3 AS TIMESTAMP)) GROUP BY t0."c_loja_id") e LEFT JOIN "t_lojas" t1 ON e.k0_0 = t1."c_id" GROUP BY NULLIF(t1."c_nome", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total, z.a1 AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY CAST(ROUND(CAST(f.o1 AS NUMERIC),
  0) AS DOUBLE PRECISION) DESC NULLS LAST, f.o0 COLLATE "C" ASC NULLS LAST LIMIT $4
-- args: [Ativa 2026-09-01 2026-10-01 10]

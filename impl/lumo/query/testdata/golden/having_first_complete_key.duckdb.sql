WITH r AS MATERIALIZED (SELECT t1."c_id" AS g0, NULLIF(t1."c_nome", '') AS g1, e.m0 AS m0, e.m1 AS m1 FROM (SELECT * FROM (SELECT t0."c_loja_id" AS k0_0, SUM(t0."c_valor") AS m0, MAX(t0."c_qtd") AS m1 FROM "t_vendas" t0 WHERE (t0."c_canal" IS NULL OR NOT (t0."c_canal" = $1)) GROUP BY t0."c_loja_id") p WHERE ROUND(m0, 0) > CAST($2 AS DECIMAL(6, 0))) e LEFT JOIN "t_lojas" t1 ON e.k0_0 = t1."c_id"),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, g1 AS o1, m0 AS o2, m1 AS o3 FROM r WHERE ROUND(m0, 0) > CAST($3 AS DECIMAL(6, 0)))
SELECT o0, o1, o2, o3, z.a0 AS n_total, z.a1 AS s0, z.a2 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, MAX(m1) AS a2 FROM f) z ORDER BY f.o0 ASC NULLS LAST, f.o1 ASC NULLS LAST LIMIT $4
-- args: [Site 100000 100000 10]

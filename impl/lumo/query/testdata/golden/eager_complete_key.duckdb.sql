WITH r AS MATERIALIZED (SELECT t1."c_id" AS g0, NULLIF(t1."c_nome", '') AS g1, e.s0 AS s0, e.c0 AS c0, e.m1 AS m1 FROM (SELECT t0."c_loja_id" AS k0_0, SUM(t0."c_valor") AS s0, COUNT(t0."c_valor") AS c0, COUNT(t0."c_qtd") AS m1 FROM "t_vendas" t0 GROUP BY t0."c_loja_id") e LEFT JOIN "t_lojas" t1 ON e.k0_0 = t1."c_id"),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, g1 AS o1, (s0 / NULLIF(CAST(c0 AS DOUBLE),
  0)) AS o2, COALESCE(m1, 0) AS o3 FROM r)
SELECT o0, o1, o2, o3, z.a0 AS n_total, (z.a1 / NULLIF(CAST(z.a2 AS DOUBLE),
  0)) AS s0, COALESCE(z.a3, 0) AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(s0) AS a1, SUM(c0) AS a2, SUM(m1) AS a3 FROM f) z ORDER BY f.o0 ASC NULLS LAST, f.o1 ASC NULLS LAST LIMIT $1
-- args: [10]

WITH r AS MATERIALIZED (SELECT e.g0 AS g0, NULLIF(t1."c_nome", '') AS g1, e.m0 AS m0, e.m1 AS m1 FROM (SELECT t0."c_cliente_id" AS k0_0, t0."c_cliente_id" AS g0, SUM(t0."c_valor") AS m0, COUNT(t0."c_id") AS m1 FROM "t_pedidos" t0 GROUP BY +t0."c_cliente_id", +t0."c_cliente_id") e LEFT JOIN "t_clientes" t1 ON e.k0_0 = t1."c_id"),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, g1 AS o1, m0 AS o2, COALESCE(m1, 0) AS o3 FROM r WHERE ROUND(m0, 0) > ?1)
SELECT o0, o1, o2, o3, z.a0 AS n_total, z.a1 AS s0, COALESCE(z.a2, 0) AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2 FROM f) z ORDER BY ROUND(f.o2, 0) DESC NULLS LAST, f.o0 ASC NULLS LAST, f.o1 ASC NULLS LAST LIMIT ?2
-- args: [50 10]

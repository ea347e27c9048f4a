WITH r AS MATERIALIZED (SELECT NULLIF((CASE WHEN (t0."c_preco" >= ?1) THEN ?2 ELSE ?3 END),
  '') AS g0, COUNT(t0."c_id") AS m0 FROM "t_pedidos" t0 WHERE ((t0."c_entrega" > t0."c_prometida")) GROUP BY NULLIF((CASE WHEN (t0."c_preco" >= ?1) THEN ?2 ELSE ?3 END),
  '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total, COALESCE(z.a1, 0) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?4
-- args: [100 Cara Barata 10]

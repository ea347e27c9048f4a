WITH d AS MATERIALIZED (SELECT NULLIF(t2."c_nome", '') AS g0, t0."c_valor" AS v FROM "t_itens" t0 JOIN "t_clientes" t1 ON t0."c_cliente_id" = t1."c_id" JOIN "t_nacoes" t2 ON t1."c_nacao_id" = t2."c_id" GROUP BY NULLIF(t2."c_nome", ''),
  t0."c_valor"),
  r AS MATERIALIZED (SELECT g0, COUNT(v) AS m0 FROM d GROUP BY g0),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total, (SELECT COUNT(DISTINCT v) FROM d) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?1
-- args: [10]

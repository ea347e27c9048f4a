WITH r AS MATERIALIZED (SELECT NULLIF((CASE WHEN (t0."c_preco" >= ?1) THEN ?2 ELSE ?3 END),
  '') AS g0, SUM(ROUND(((t0."c_preco" * t0."c_qtd") * (?4 - t0."c_desconto")),
  0)) AS m0, SUM(ROUND((CASE WHEN (t0."c_entrega" > t0."c_prometida") THEN ?5 ELSE ?6 END),
  0)) AS m1 FROM "t_pedidos" t0 WHERE ROUND((julianday(t0."c_entrega") - julianday(t0."c_data_pedido")),
  0) > ?7 AND ((CASE WHEN (t0."c_preco" >= ?8) THEN ?9 ELSE ?10 END) = ?11) GROUP BY NULLIF((CASE WHEN (t0."c_preco" >= ?1) THEN ?2 ELSE ?3 END),
  '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1, m1 AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, z.a1 AS s0, z.a2 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2 FROM f) z ORDER BY ROUND(f.o1, 0) DESC NULLS LAST, f.o0 ASC NULLS LAST LIMIT ?12
-- args: [100 Cara Barata 1 1 0 4 100 Cara Barata Cara 10]

WITH r AS MATERIALIZED (SELECT NULLIF((CASE WHEN (t0."c_preco" >= CAST($1 AS DECIMAL(3, 0))) THEN CAST($2 AS TEXT) ELSE CAST($3 AS TEXT) END),
  '') AS g0, SUM(((t0."c_preco" * t0."c_qtd") * (CAST($4 AS DECIMAL(1, 0)) - t0."c_desconto"))) AS m0, SUM((CASE WHEN (t0."c_entrega" > t0."c_prometida") THEN CAST($5 AS DECIMAL(1, 0)) ELSE CAST($6 AS DECIMAL(1, 0)) END)) AS m1 FROM "t_pedidos" t0 WHERE (CAST(epoch_us(CAST(t0."c_entrega" AS TIMESTAMP)) - epoch_us(CAST(t0."c_data_pedido" AS TIMESTAMP)) AS DOUBLE) / 86400000000) > CAST($7 AS DECIMAL(1, 0)) AND ((CASE WHEN (t0."c_preco" >= CAST($8 AS DECIMAL(3, 0))) THEN CAST($9 AS TEXT) ELSE CAST($10 AS TEXT) END) = $11) GROUP BY NULLIF((CASE WHEN (t0."c_preco" >= CAST($1 AS DECIMAL(3, 0))) THEN CAST($2 AS TEXT) ELSE CAST($3 AS TEXT) END),
  '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1, m1 AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, z.a1 AS s0, z.a2 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2 FROM f) z ORDER BY ROUND(f.o1, 0) DESC NULLS LAST, f.o0 ASC NULLS LAST LIMIT $12
-- args: [100 Cara Barata 1 1 0 4 100 Cara Barata Cara 10]

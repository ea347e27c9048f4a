WITH r AS MATERIALIZED (SELECT NULLIF(t0."c_canal", '') AS g0, COUNT(DISTINCT t0."c_id") AS m0 FROM "t_vendas" t0 WHERE ((t0."c_cupom" IS NOT NULL AND t0."c_cupom" <> '') AND NOT (t0."c_cupom" = $1)) AND (t0."c_cliente_f" IS NULL OR NOT contains(t0."c_cliente_f", $2)) GROUP BY NULLIF(t0."c_canal", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total, (SELECT COUNT(DISTINCT t0."c_id") FROM "t_vendas" t0 WHERE ((t0."c_cupom" IS NOT NULL AND t0."c_cupom" <> '') AND NOT (t0."c_cupom" = $3)) AND (t0."c_cliente_f" IS NULL OR NOT contains(t0."c_cliente_f", $4))) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT $5
-- args: [PRIMAVERA jose PRIMAVERA jose 10]

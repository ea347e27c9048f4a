WITH r AS MATERIALIZED (SELECT NULLIF(t0."c_canal", '') AS g0, COUNT(DISTINCT t0."c_id") AS m0, GROUPING(NULLIF(t0."c_canal", '')) AS gt FROM "t_vendas" t0 WHERE ((t0."c_cupom" IS NOT NULL AND t0."c_cupom" <> '') AND NOT (t0."c_cupom" = $1)) AND (t0."c_cliente" IS NULL OR t0."c_cliente" = '' OR t0."c_cliente_f" NOT LIKE $2 ESCAPE '\') GROUP BY GROUPING SETS ((NULLIF(t0."c_canal", '')),
  ())),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1 FROM r WHERE gt = 0)
SELECT o0, o1, (SELECT COUNT(*) FROM (SELECT 1 FROM f LIMIT 1000001) x) AS n_total, (SELECT m0 FROM r WHERE gt = 1) AS s0 FROM f ORDER BY f.o0 ASC NULLS LAST LIMIT $3
-- args: [PRIMAVERA %jose% 10]

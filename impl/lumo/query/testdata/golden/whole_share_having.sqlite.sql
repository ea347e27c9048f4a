WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_nome", '') AS g0, SUM(e.m0) AS m0 FROM (SELECT t0."c_loja_id" AS k0_0, SUM(t0."c_valor") AS m0 FROM "t_vendas" t0 WHERE (t0."c_situacao" = ?1) GROUP BY +t0."c_loja_id") e LEFT JOIN "t_lojas" t1 ON e.k0_0 = t1."c_id" GROUP BY NULLIF(t1."c_nome", '')),
  w AS MATERIALIZED (SELECT r.*, SUM(CAST(m0 AS REAL)) OVER () AS w0 FROM r),
  f AS MATERIALIZED (SELECT w.*, g0 AS o0, (CAST(m0 AS REAL) / NULLIF(w0, 0)) AS o1 FROM w WHERE CASE WHEN ABS((CAST(m0 AS REAL) / NULLIF(w0, 0))) < 1 THEN ROUND((CAST(m0 AS REAL) / NULLIF(w0, 0)),
  12) ELSE ROUND((CAST(m0 AS REAL) / NULLIF(w0, 0)),
  6) END > ?2)
SELECT o0, o1, z.a0 AS n_total, (CAST(z.a1 AS REAL) / NULLIF((SELECT MAX(w0) FROM w),
  0)) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY ROUND(f.o1, 6) DESC NULLS LAST, f.o0 ASC NULLS LAST LIMIT ?3
-- args: [Ativa 0.1 10]

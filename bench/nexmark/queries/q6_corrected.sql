-- -------------------------------------------------------------------------------------------------
-- Query 6, corrected: Average Selling Price by Seller (not nexmark's file: see q6.sql)
-- -------------------------------------------------------------------------------------------------
-- nexmark's q6 filters on `rownum` in the WHERE of the SELECT that defines it, which no SQL
-- engine accepts. Here the filter is in an outer query, as its comment intends. Flink refuses
-- this one too in STREAMING mode (its OVER window is ordered by a field the join has made an
-- ordinary timestamp); pystream computes it over the rows the Top-1 leaves (docs/sql.md).
-- -------------------------------------------------------------------------------------------------

CREATE TABLE nexmark_q6_corrected (
  seller BIGINT,
  avg_price  BIGINT
) WITH (
  'connector' = 'blackhole'
);

INSERT INTO nexmark_q6_corrected
SELECT
    Q.seller,
    AVG(Q.price) OVER
        (PARTITION BY Q.seller ORDER BY Q.`dateTime` ROWS BETWEEN 10 PRECEDING AND CURRENT ROW)
FROM (
    SELECT * FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY id, seller ORDER BY price DESC) AS rownum
        FROM (SELECT A.id, A.seller, B.price, B.`dateTime`
            FROM auction AS A,
                bid AS B
            WHERE A.id = B.auction
                and B.`dateTime` between A.`dateTime` and A.expires))
    WHERE rownum <= 1
) AS Q;

-- TPC-H Q20, potential part promotion. COLOR = forest, DATE = 1994-01-01, NATION = CANADA.
select
    s_name,
    s_address
from
    read_csv('data/supplier.csv') as supplier,
    read_csv('data/nation.csv') as nation
where
    s_suppkey in (
        select
            ps_suppkey
        from
            read_csv('data/partsupp.csv') as partsupp
        where
            ps_partkey in (
                select
                    p_partkey
                from
                    read_csv('data/part.csv') as part
                where
                    p_name like 'forest%'
            )
            and ps_availqty > (
                select
                    0.5 * sum(l_quantity)
                from
                    read_csv('data/lineitem.csv') as lineitem
                where
                    l_partkey = ps_partkey
                    and l_suppkey = ps_suppkey
                    and l_shipdate >= date '1994-01-01'
                    and l_shipdate < date '1994-01-01' + interval '1' year
            )
    )
    and s_nationkey = n_nationkey
    and n_name = 'CANADA'
order by
    s_name;

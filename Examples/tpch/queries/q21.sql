-- TPC-H Q21, suppliers who kept orders waiting. NATION = SAUDI ARABIA.
select
    s_name,
    count(*) as numwait
from
    read_csv('data/supplier.csv') as supplier,
    read_csv('data/lineitem.csv') as l1,
    read_csv('data/orders.csv') as orders,
    read_csv('data/nation.csv') as nation
where
    s_suppkey = l1.l_suppkey
    and o_orderkey = l1.l_orderkey
    and o_orderstatus = 'F'
    and l1.l_receiptdate > l1.l_commitdate
    and exists (
        select
            *
        from
            read_csv('data/lineitem.csv') as l2
        where
            l2.l_orderkey = l1.l_orderkey
            and l2.l_suppkey <> l1.l_suppkey
    )
    and not exists (
        select
            *
        from
            read_csv('data/lineitem.csv') as l3
        where
            l3.l_orderkey = l1.l_orderkey
            and l3.l_suppkey <> l1.l_suppkey
            and l3.l_receiptdate > l3.l_commitdate
    )
    and s_nationkey = n_nationkey
    and n_name = 'SAUDI ARABIA'
group by
    s_name
order by
    numwait desc,
    s_name
limit 100;

-- TPC-H Q17, small-quantity-order revenue. BRAND = Brand#23, CONTAINER = MED BOX.
select
    sum(l_extendedprice) / 7.0 as avg_yearly
from
    read_csv('data/lineitem.csv') as lineitem,
    read_csv('data/part.csv') as part
where
    p_partkey = l_partkey
    and p_brand = 'Brand#23'
    and p_container = 'MED BOX'
    and l_quantity < (
        select
            0.2 * avg(l_quantity)
        from
            read_csv('data/lineitem.csv') as lineitem
        where
            l_partkey = p_partkey
    );

set $v=randvar(type=tabular, min=1k, randtable={{50, 1k, 2k}, {40, 2k, 4k}})

set $v=cvar(type=cvar-poisson, parameters="mean:10")

set $v=cvar(type=cvar-normal, parameters="mean:10;mu:3")

set $v=cvar(oisson, parameters="mean:10")

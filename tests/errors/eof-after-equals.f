set $x =

# Expected: an escape fbrun does not know is a warning at it; the character stands for itself.
set $a = "tab\there, \q and \% and \"quoted\" and \\ and \$"
echo "$a"

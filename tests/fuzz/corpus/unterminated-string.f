set $x=1
echo "no end
run 1

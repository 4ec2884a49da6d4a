set $dir=/tmp/a~b

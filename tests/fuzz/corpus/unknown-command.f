set $x=1
defin fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5

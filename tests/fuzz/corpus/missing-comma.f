define fileset name=fs,path=/tmp/fbrun-never entries=10,dirwidth=5

define fileset name=fs,path=/tmp/fbrun-never,entries=1.5,dirwidth=5

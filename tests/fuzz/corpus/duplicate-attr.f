define fileset name=fs,path=/tmp/fbrun-never,entries=10,entries=20,dirwidth=5

define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5
define fileset name=fs,path=/tmp/fbrun-never,entries=20,dirwidth=5

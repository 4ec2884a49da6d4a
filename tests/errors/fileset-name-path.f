# Expected: a name that is not one directory name is refused before anything runs.
define fileset name=..,path=/tmp/fbrun-never,entries=10,dirwidth=5
define fileset name=a/b,path=/tmp/fbrun-never,entries=10,dirwidth=5

set $nfiles=many
define fileset name=fs,path=/tmp/fbrun-never,entries=$nfiles,dirwidth=5

# Spellings of older filebench versions: accepted, with what to write now.
define randvar name=$filesize, type=gamma, min=1k, mean=16k, gamma=1500
set $cached=false
define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5,size=8k,filesizegamma=entrie1500,cached=$cached,dirdepth=2
define process name=p { thread name=t { flowop openfile name=o,filesetname=fs,rotatefd
flowop closefile name=c } }
run 1

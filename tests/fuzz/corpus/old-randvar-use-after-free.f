# Spellings of older filebench versions: accepted, with what to write now.
define randvar name=$filesize, tymin=1k, mean=16k, paname=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5,size=8k,filesizegamma=1500,cacpat,$cached,dirdepth=2
define process name=p { thread name=t { flowop openfile name=o,filesetname=fs,rotatefd
flowop closefile name=c } }
run 1

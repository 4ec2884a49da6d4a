# Expected: what follows the run is never executed, but a mistake there is still an error.
define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5
define process name=p { thread name=t { flowop statfile name=s,filesetname=fs } }
run 1
set $n = "ten"
define fileset name=late,path=/tmp/fbrun-never,entries=$n,dirwidth=5
define process name=q { thread name=t { flowop statfil name=s,filesetname=fs } }
sleep $n
run 2
eventgen rat=1

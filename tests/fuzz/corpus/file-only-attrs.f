define file name=f,path=/tmp/fbrun-never,entries=10

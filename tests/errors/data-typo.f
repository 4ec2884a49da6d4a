# a misspelt data pattern: what it takes, and the closest word
define fileset name=fs,path=/tmp/fbrun-never,entries=10,dirwidth=5,data=zeroz

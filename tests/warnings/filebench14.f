# filebench 1.4's vars and help: accepted, with a warning that they do
# nothing here
set $nfiles=10
vars
help

load fileserver

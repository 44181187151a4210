module github.com/kakure/kakure

go 1.26

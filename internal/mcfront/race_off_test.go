//go:build !race

package mcfront

const raceEnabled = false

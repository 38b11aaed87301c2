package engine

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// BenchmarkKeySetAfterBulk is a group's keys remembered and forgotten
// (two keys, then reset) after one group of bulk keys: a reset must not
// cost the size of that bulk group (keySetKeep). 47 ns at every bulk
// size with the bound, 400-540 ns after 2,000 and 20,000 keys without.
func BenchmarkKeySetAfterBulk(b *testing.B) {
	for _, bulk := range []int{0, 2000, 20000} {
		b.Run(fmt.Sprintf("bulk=%d", bulk), func(b *testing.B) {
			var s keySet
			k := make([]byte, 8)
			for i := range bulk {
				binary.BigEndian.PutUint64(k, uint64(i))
				s.add(k)
			}
			s.reset()
			b.ResetTimer()
			for i := range b.N {
				binary.BigEndian.PutUint64(k, uint64(i))
				s.add(k)
				s.add(k[:4])
				s.reset()
			}
		})
	}
}
